# Wall-time measurement shared by the bench scripts (sourced, not run).
#
# Timestamps come from bash 5's $EPOCHREALTIME read directly: a command substitution such
# as t0=$(now) forks a subshell, and that fork (0.7-1 ms here) would be counted in every
# run measured.

# time_runs N FILE CMD...: runs CMD N times with its output discarded and appends each
# run's wall time in microseconds to FILE (one per line). A function, so that the runs
# are children of the calling shell (its `times` builtin counts their CPU time).
time_runs() {
  local n=$1 out=$2 i t0 t1
  shift 2
  for ((i = 0; i < n; i++)); do
    t0=${EPOCHREALTIME/[.,]/}
    "$@" >/dev/null
    t1=${EPOCHREALTIME/[.,]/}
    echo $((t1 - t0)) >>"$out"
  done
}

# median_us FILE: the median of the numbers in FILE (microseconds).
median_us() {
  sort -n "$1" | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}
