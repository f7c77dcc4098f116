set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.1.0-57-amd64/plots/cpurate_units_per_s.png"
set title "cpurate: units_per_s per configuration  [qemu TCG: not hardware timings]"
set ylabel "units_per_s (units/s, higher is better)"
set grid
set autoscale y
set xtics ("stock" 0, "eevdf-stock" 1) rotate by -25
set xrange [-0.6:1.6]
set key top right
plot "docs/bench-vm/6.1.0-57-amd64/plots/cpurate_units_per_s.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "Hmean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.1.0-57-amd64/plots/cpurate_copy_cv_pct.png"
set title "cpurate: copy_cv_pct per configuration  [qemu TCG: not hardware timings]"
set ylabel "copy_cv_pct (%, lower is better)"
set grid
set autoscale y
set xtics ("stock" 0, "eevdf-stock" 1) rotate by -25
set xrange [-0.6:1.6]
set key top right
plot "docs/bench-vm/6.1.0-57-amd64/plots/cpurate_copy_cv_pct.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.1.0-57-amd64/plots/cpurate_starved.png"
set title "cpurate: starved per configuration  [qemu TCG: not hardware timings]"
set ylabel "starved (copies, lower is better)"
set grid
set autoscale y
set xtics ("stock" 0, "eevdf-stock" 1) rotate by -25
set xrange [-0.6:1.6]
set key top right
plot "docs/bench-vm/6.1.0-57-amd64/plots/cpurate_starved.dat" index 0 using ($1+$3):2 with points pt 7 ps 1.2 lc rgb '#3060a0' notitle, '' index 1 using ($1-0.3):2:(0.6):(0) with vectors nohead lw 3 lc rgb '#c03020' title "mean"
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
set terminal pngcairo size 960,540 noenhanced font ',10'
set output "docs/bench-vm/6.1.0-57-amd64/plots/order_cpurate.png"
set title "cpurate: units_per_s of every run in the order run  [qemu TCG: not hardware timings]"
set ylabel "units_per_s (units/s, higher is better)"
set grid
set autoscale y
set xlabel "run index in the bench (hollow: warm-up, discarded)"
set key outside right
plot "docs/bench-vm/6.1.0-57-amd64/plots/order_cpurate.dat" index 0 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#1f77b4' title "stock", '' index 0 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#1f77b4' notitle, '' index 1 using 1:($3 > 0 ? 1/0 : $2) with points pt 7 ps 1.1 lc rgb '#ff7f0e' title "eevdf-stock", '' index 1 using 1:($3 > 0 ? $2 : 1/0) with points pt 6 ps 1.1 lc rgb '#ff7f0e' notitle
unset output
unset xlabel
unset xtics
set xtics auto
unset logscale x
set autoscale x
unset key
