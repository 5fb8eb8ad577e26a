# tests/tng/edits.sh - helpers of the tng edit tests: source it after
# tests/lib.sh, with $P the python writer and reader (tngpy.py).
#
#   bad_edit FILE PYTHON-BYTES WHAT LOG   writing m/FILE fails with EINVAL, it reads back
#                                         its last good content, the log says LOG
#   edited_only KEYS                      f.tng has good CRCs, `check` passes without
#                                         warnings, and only the items KEYS (tngpy dump
#                                         keys, sorted, apart by spaces) differ from orig.tng

bad_edit() {
	before=$(md5sum <"m/$1")
	check_eq EINVAL "$(errno_of "f=open('m/$1','wb'); f.write($2); f.close()")" "$3"
	check_eq "$before" "$(md5sum <"m/$1")" "$3: reads back its last good content"
	grep -qF "$4" gamefs.log || fail "$3: the log does not say [$4]: $(tail -n 3 gamefs.log)"
}

edited_only() {
	$P verify f.tng >/dev/null || fail "CRCs after the edits"
	"$GAMEFS" check f.tng >check.out || fail "check after the edits: $(cat check.out)"
	grep -q warning check.out && fail "warnings after the edits: $(cat check.out)"
	$P dump orig.tng >before
	$P dump f.tng >after
	check_eq "$1" "$(diff before after | grep '^[<>]' | awk '{print $2}' | sort -u | paste -sd' ')" \
		"only the edited parts changed"
}
