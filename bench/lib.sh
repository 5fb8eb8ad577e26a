# bench/lib.sh - timing helpers shared by the bench scripts (sourced).
now() { date +%s.%N; }
# seconds between two now() stamps
secs() { echo "$2 - $1" | bc -l | awk '{printf "%.4f", $1}'; }
# A / B to three places
ratio() { echo "scale=3; $1 / $2" | bc -l | awk '{printf "%.3f", $1}'; }
# read speed of BYTES in SECS, as a fraction of ALLBYTES in ALLSECS (cat of the archive)
speed() { echo "scale=3; ($1 / $2) / ($3 / $4)" | bc -l | awk '{printf "%.3f", $1}'; }
