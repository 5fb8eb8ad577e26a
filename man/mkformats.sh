#!/bin/sh
# Assemble man/gamefs-formats.5 from its head and each format's MANUAL.mdoc.
# Run after editing a format's manual section; the result is committed.
cd "$(dirname "$0")/.." || exit 1
{
	cat man/gamefs-formats.5.head
	for f in rpg tng tngsave zzt lay; do
		[ -f "src/formats/$f/MANUAL.mdoc" ] && cat "src/formats/$f/MANUAL.mdoc"
	done
	printf '.Sh SEE ALSO\n.Xr gamefs 1\n'
} >man/gamefs-formats.5
