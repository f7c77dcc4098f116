set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/hackbench-g1_time_s.png"
set title "hackbench-g1: time_s per configuration  [qemu TCG: not hardware timings]"
set ylabel "time_s (s, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12, "ratelimit_window_ns=20000000" 13, "ratelimit_window_ns=100000000" 14, "ratelimit_window_ns=1000000000" 15) rotate by -25
set xrange [-0.6:15.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/hackbench-g1_time_s.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/order_hackbench-g1.png"
set title "hackbench-g1: time_s of every run in the order run  [qemu TCG: not hardware timings]"
set ylabel "time_s (s, lower is better)"
set grid
set autoscale y
set xlabel "run index in the bench (hollow: warm-up, discarded)"
set key outside right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/order_hackbench-g1.dat" index 0 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "unloaded", '' index 0 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 1 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "stock", '' index 1 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 2 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "passthrough", '' index 2 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle, '' index 3 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#d62728' title "seed", '' index 3 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#d62728' notitle, '' index 4 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#9467bd' title "ratelimit", '' index 4 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#9467bd' notitle, '' index 5 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#8c564b' title "ratelimit-adaptive", '' index 5 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#8c564b' notitle, '' index 6 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#e377c2' title "cache_level", '' index 6 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#e377c2' notitle, '' index 7 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#7f7f7f' title "numa_scan", '' index 7 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#7f7f7f' notitle, '' index 8 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#bcbd22' title "ttwu-queue-default", '' index 8 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#bcbd22' notitle, '' index 9 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#17becf' title "eevdf-stock", '' index 9 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#17becf' notitle, '' index 10 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "eevdf-fixed12", '' index 10 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 11 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "eevdf-scaled", '' index 11 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 12 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "select_bias_prev", '' index 12 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle, '' index 13 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#d62728' title "ratelimit_window_ns=20000000", '' index 13 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#d62728' notitle, '' index 14 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#9467bd' title "ratelimit_window_ns=100000000", '' index 14 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#9467bd' notitle, '' index 15 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#8c564b' title "ratelimit_window_ns=1000000000", '' index 15 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#8c564b' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/hackbench-g2_time_s.png"
set title "hackbench-g2: time_s per configuration  [qemu TCG: not hardware timings]"
set ylabel "time_s (s, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12, "ratelimit_window_ns=20000000" 13, "ratelimit_window_ns=100000000" 14, "ratelimit_window_ns=1000000000" 15) rotate by -25
set xrange [-0.6:15.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/hackbench-g2_time_s.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/order_hackbench-g2.png"
set title "hackbench-g2: time_s of every run in the order run  [qemu TCG: not hardware timings]"
set ylabel "time_s (s, lower is better)"
set grid
set autoscale y
set xlabel "run index in the bench (hollow: warm-up, discarded)"
set key outside right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/order_hackbench-g2.dat" index 0 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "unloaded", '' index 0 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 1 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "stock", '' index 1 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 2 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "passthrough", '' index 2 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle, '' index 3 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#d62728' title "seed", '' index 3 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#d62728' notitle, '' index 4 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#9467bd' title "ratelimit", '' index 4 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#9467bd' notitle, '' index 5 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#8c564b' title "ratelimit-adaptive", '' index 5 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#8c564b' notitle, '' index 6 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#e377c2' title "cache_level", '' index 6 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#e377c2' notitle, '' index 7 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#7f7f7f' title "numa_scan", '' index 7 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#7f7f7f' notitle, '' index 8 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#bcbd22' title "ttwu-queue-default", '' index 8 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#bcbd22' notitle, '' index 9 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#17becf' title "eevdf-stock", '' index 9 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#17becf' notitle, '' index 10 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "eevdf-fixed12", '' index 10 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 11 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "eevdf-scaled", '' index 11 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 12 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "select_bias_prev", '' index 12 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle, '' index 13 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#d62728' title "ratelimit_window_ns=20000000", '' index 13 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#d62728' notitle, '' index 14 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#9467bd' title "ratelimit_window_ns=100000000", '' index 14 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#9467bd' notitle, '' index 15 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#8c564b' title "ratelimit_window_ns=1000000000", '' index 15 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#8c564b' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/messaging_time_s.png"
set title "messaging: time_s per configuration  [qemu TCG: not hardware timings]"
set ylabel "time_s (s, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/messaging_time_s.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/order_messaging.png"
set title "messaging: time_s of every run in the order run  [qemu TCG: not hardware timings]"
set ylabel "time_s (s, lower is better)"
set grid
set autoscale y
set xlabel "run index in the bench (hollow: warm-up, discarded)"
set key outside right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/order_messaging.dat" index 0 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "unloaded", '' index 0 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 1 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "stock", '' index 1 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 2 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "passthrough", '' index 2 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle, '' index 3 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#d62728' title "seed", '' index 3 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#d62728' notitle, '' index 4 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#9467bd' title "ratelimit", '' index 4 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#9467bd' notitle, '' index 5 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#8c564b' title "ratelimit-adaptive", '' index 5 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#8c564b' notitle, '' index 6 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#e377c2' title "cache_level", '' index 6 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#e377c2' notitle, '' index 7 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#7f7f7f' title "numa_scan", '' index 7 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#7f7f7f' notitle, '' index 8 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#bcbd22' title "ttwu-queue-default", '' index 8 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#bcbd22' notitle, '' index 9 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#17becf' title "eevdf-stock", '' index 9 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#17becf' notitle, '' index 10 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "eevdf-fixed12", '' index 10 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 11 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "eevdf-scaled", '' index 11 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 12 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "select_bias_prev", '' index 12 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/pipe_usecs_per_op.png"
set title "pipe: usecs_per_op per configuration  [qemu TCG: not hardware timings]"
set ylabel "usecs_per_op (us, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/pipe_usecs_per_op.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/order_pipe.png"
set title "pipe: usecs_per_op of every run in the order run  [qemu TCG: not hardware timings]"
set ylabel "usecs_per_op (us, lower is better)"
set grid
set autoscale y
set xlabel "run index in the bench (hollow: warm-up, discarded)"
set key outside right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/order_pipe.dat" index 0 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "unloaded", '' index 0 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 1 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "stock", '' index 1 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 2 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "passthrough", '' index 2 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle, '' index 3 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#d62728' title "seed", '' index 3 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#d62728' notitle, '' index 4 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#9467bd' title "ratelimit", '' index 4 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#9467bd' notitle, '' index 5 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#8c564b' title "ratelimit-adaptive", '' index 5 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#8c564b' notitle, '' index 6 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#e377c2' title "cache_level", '' index 6 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#e377c2' notitle, '' index 7 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#7f7f7f' title "numa_scan", '' index 7 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#7f7f7f' notitle, '' index 8 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#bcbd22' title "ttwu-queue-default", '' index 8 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#bcbd22' notitle, '' index 9 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#17becf' title "eevdf-stock", '' index 9 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#17becf' notitle, '' index 10 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "eevdf-fixed12", '' index 10 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 11 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "eevdf-scaled", '' index 11 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 12 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "select_bias_prev", '' index 12 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/tbench_mb_per_s.png"
set title "tbench: mb_per_s per configuration  [qemu TCG: not hardware timings]"
set ylabel "mb_per_s (MB/s, higher is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/tbench_mb_per_s.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "Hmean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/tbench_max_latency_ms.png"
set title "tbench: max_latency_ms per configuration  [qemu TCG: not hardware timings]"
set ylabel "max_latency_ms (ms, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/tbench_max_latency_ms.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/order_tbench.png"
set title "tbench: mb_per_s of every run in the order run  [qemu TCG: not hardware timings]"
set ylabel "mb_per_s (MB/s, higher is better)"
set grid
set autoscale y
set xlabel "run index in the bench (hollow: warm-up, discarded)"
set key outside right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/order_tbench.dat" index 0 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "unloaded", '' index 0 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 1 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "stock", '' index 1 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 2 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "passthrough", '' index 2 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle, '' index 3 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#d62728' title "seed", '' index 3 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#d62728' notitle, '' index 4 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#9467bd' title "ratelimit", '' index 4 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#9467bd' notitle, '' index 5 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#8c564b' title "ratelimit-adaptive", '' index 5 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#8c564b' notitle, '' index 6 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#e377c2' title "cache_level", '' index 6 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#e377c2' notitle, '' index 7 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#7f7f7f' title "numa_scan", '' index 7 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#7f7f7f' notitle, '' index 8 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#bcbd22' title "ttwu-queue-default", '' index 8 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#bcbd22' notitle, '' index 9 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#17becf' title "eevdf-stock", '' index 9 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#17becf' notitle, '' index 10 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "eevdf-fixed12", '' index 10 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 11 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "eevdf-scaled", '' index 11 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 12 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "select_bias_prev", '' index 12 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/wakelat_p99_us.png"
set title "wakelat: p99_us per configuration  [qemu TCG: not hardware timings]"
set ylabel "p99_us (us, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/wakelat_p99_us.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/wakelat_p90_us.png"
set title "wakelat: p90_us per configuration  [qemu TCG: not hardware timings]"
set ylabel "p90_us (us, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/wakelat_p90_us.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/wakelat_p50_us.png"
set title "wakelat: p50_us per configuration  [qemu TCG: not hardware timings]"
set ylabel "p50_us (us, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/wakelat_p50_us.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/wakelat_p999_us.png"
set title "wakelat: p999_us per configuration  [qemu TCG: not hardware timings]"
set ylabel "p999_us (us, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/wakelat_p999_us.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/wakelat_requests_per_s.png"
set title "wakelat: requests_per_s per configuration  [qemu TCG: not hardware timings]"
set ylabel "requests_per_s (req/s, higher is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/wakelat_requests_per_s.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "Hmean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/order_wakelat.png"
set title "wakelat: p99_us of every run in the order run  [qemu TCG: not hardware timings]"
set ylabel "p99_us (us, lower is better)"
set grid
set autoscale y
set xlabel "run index in the bench (hollow: warm-up, discarded)"
set key outside right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/order_wakelat.dat" index 0 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "unloaded", '' index 0 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 1 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "stock", '' index 1 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 2 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "passthrough", '' index 2 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle, '' index 3 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#d62728' title "seed", '' index 3 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#d62728' notitle, '' index 4 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#9467bd' title "ratelimit", '' index 4 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#9467bd' notitle, '' index 5 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#8c564b' title "ratelimit-adaptive", '' index 5 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#8c564b' notitle, '' index 6 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#e377c2' title "cache_level", '' index 6 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#e377c2' notitle, '' index 7 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#7f7f7f' title "numa_scan", '' index 7 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#7f7f7f' notitle, '' index 8 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#bcbd22' title "ttwu-queue-default", '' index 8 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#bcbd22' notitle, '' index 9 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#17becf' title "eevdf-stock", '' index 9 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#17becf' notitle, '' index 10 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "eevdf-fixed12", '' index 10 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 11 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "eevdf-scaled", '' index 11 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 12 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "select_bias_prev", '' index 12 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/numa_passes_per_s.png"
set title "numa: passes_per_s per configuration  [qemu TCG: not hardware timings]"
set ylabel "passes_per_s (passes/s, higher is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/numa_passes_per_s.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "Hmean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/numa_numa_pte_updates.png"
set title "numa: numa_pte_updates per configuration  [qemu TCG: not hardware timings]"
set ylabel "numa_pte_updates (per run)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/numa_numa_pte_updates.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/numa_numa_hint_faults.png"
set title "numa: numa_hint_faults per configuration  [qemu TCG: not hardware timings]"
set ylabel "numa_hint_faults (per run)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/numa_numa_hint_faults.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/order_numa.png"
set title "numa: passes_per_s of every run in the order run  [qemu TCG: not hardware timings]"
set ylabel "passes_per_s (passes/s, higher is better)"
set grid
set autoscale y
set xlabel "run index in the bench (hollow: warm-up, discarded)"
set key outside right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/order_numa.dat" index 0 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "unloaded", '' index 0 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 1 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "stock", '' index 1 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 2 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "passthrough", '' index 2 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle, '' index 3 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#d62728' title "seed", '' index 3 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#d62728' notitle, '' index 4 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#9467bd' title "ratelimit", '' index 4 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#9467bd' notitle, '' index 5 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#8c564b' title "ratelimit-adaptive", '' index 5 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#8c564b' notitle, '' index 6 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#e377c2' title "cache_level", '' index 6 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#e377c2' notitle, '' index 7 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#7f7f7f' title "numa_scan", '' index 7 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#7f7f7f' notitle, '' index 8 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#bcbd22' title "ttwu-queue-default", '' index 8 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#bcbd22' notitle, '' index 9 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#17becf' title "eevdf-stock", '' index 9 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#17becf' notitle, '' index 10 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "eevdf-fixed12", '' index 10 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 11 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "eevdf-scaled", '' index 11 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 12 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "select_bias_prev", '' index 12 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/cpurate_units_per_s.png"
set title "cpurate: units_per_s per configuration  [qemu TCG: not hardware timings]"
set ylabel "units_per_s (units/s, higher is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/cpurate_units_per_s.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "Hmean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/cpurate_copy_cv_pct.png"
set title "cpurate: copy_cv_pct per configuration  [qemu TCG: not hardware timings]"
set ylabel "copy_cv_pct (%, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/cpurate_copy_cv_pct.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/cpurate_starved.png"
set title "cpurate: starved per configuration  [qemu TCG: not hardware timings]"
set ylabel "starved (copies, lower is better)"
set grid
set autoscale y
set xtics ("unloaded" 0, "stock" 1, "passthrough" 2, "seed" 3, "ratelimit" 4, "ratelimit-adaptive" 5, "cache_level" 6, "numa_scan" 7, "ttwu-queue-default" 8, "eevdf-stock" 9, "eevdf-fixed12" 10, "eevdf-scaled" 11, "select_bias_prev" 12) rotate by -25
set xrange [-0.6:12.6]
set key top right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/cpurate_starved.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/order_cpurate.png"
set title "cpurate: units_per_s of every run in the order run  [qemu TCG: not hardware timings]"
set ylabel "units_per_s (units/s, higher is better)"
set grid
set autoscale y
set xlabel "run index in the bench (hollow: warm-up, discarded)"
set key outside right
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/order_cpurate.dat" index 0 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "unloaded", '' index 0 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 1 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "stock", '' index 1 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 2 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "passthrough", '' index 2 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle, '' index 3 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#d62728' title "seed", '' index 3 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#d62728' notitle, '' index 4 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#9467bd' title "ratelimit", '' index 4 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#9467bd' notitle, '' index 5 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#8c564b' title "ratelimit-adaptive", '' index 5 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#8c564b' notitle, '' index 6 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#e377c2' title "cache_level", '' index 6 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#e377c2' notitle, '' index 7 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#7f7f7f' title "numa_scan", '' index 7 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#7f7f7f' notitle, '' index 8 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#bcbd22' title "ttwu-queue-default", '' index 8 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#bcbd22' notitle, '' index 9 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#17becf' title "eevdf-stock", '' index 9 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#17becf' notitle, '' index 10 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "eevdf-fixed12", '' index 10 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 11 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "eevdf-scaled", '' index 11 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle, '' index 12 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#2ca02c' title "select_bias_prev", '' index 12 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#2ca02c' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/sweep_ratelimit_window_ns_hackbench-g1.png"
set title "hackbench-g1 over ratelimit_window_ns (median, min..max)  [qemu TCG: not hardware timings]"
set ylabel "time_s (s, lower is better)"
set grid
set autoscale y
set xlabel "ratelimit_window_ns (log scale; 0 drawn a decade below the smallest value)"
set xtics ("0" 200000, "2000000" 2000000, "20000000" 20000000, "100000000" 100000000, "1000000000" 1000000000) rotate by -25
set logscale x; set xrange [100000:2000000000]
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/sweep_ratelimit_window_ns_hackbench-g1.dat" using 1:2:3:4 with yerrorlines pt 7 lw 2 lc rgb '#3060a0' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/sweep_ratelimit_window_ns_hackbench-g1_migrations.png"
set title "hackbench-g1 over ratelimit_window_ns: migrations/run  [qemu TCG: not hardware timings]"
set ylabel "task migrations per run (median)"
set grid
set autoscale y
set xlabel "ratelimit_window_ns (log scale; 0 drawn a decade below the smallest value)"
set xtics ("0" 200000, "2000000" 2000000, "20000000" 20000000, "100000000" 100000000, "1000000000" 1000000000) rotate by -25
set logscale x; set xrange [100000:2000000000]
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/sweep_ratelimit_window_ns_hackbench-g1.dat" using 1:5 with linespoints pt 5 dt 2 lc rgb '#c03020' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/sweep_ratelimit_window_ns_hackbench-g2.png"
set title "hackbench-g2 over ratelimit_window_ns (median, min..max)  [qemu TCG: not hardware timings]"
set ylabel "time_s (s, lower is better)"
set grid
set autoscale y
set xlabel "ratelimit_window_ns (log scale; 0 drawn a decade below the smallest value)"
set xtics ("0" 200000, "2000000" 2000000, "20000000" 20000000, "100000000" 100000000, "1000000000" 1000000000) rotate by -25
set logscale x; set xrange [100000:2000000000]
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/sweep_ratelimit_window_ns_hackbench-g2.dat" using 1:2:3:4 with yerrorlines pt 7 lw 2 lc rgb '#3060a0' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.12.95+deb12-amd64/plots/sweep_ratelimit_window_ns_hackbench-g2_migrations.png"
set title "hackbench-g2 over ratelimit_window_ns: migrations/run  [qemu TCG: not hardware timings]"
set ylabel "task migrations per run (median)"
set grid
set autoscale y
set xlabel "ratelimit_window_ns (log scale; 0 drawn a decade below the smallest value)"
set xtics ("0" 200000, "2000000" 2000000, "20000000" 20000000, "100000000" 100000000, "1000000000" 1000000000) rotate by -25
set logscale x; set xrange [100000:2000000000]
plot "docs/bench-vm/6.12.95+deb12-amd64/plots/sweep_ratelimit_window_ns_hackbench-g2.dat" using 1:5 with linespoints pt 5 dt 2 lc rgb '#c03020' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
