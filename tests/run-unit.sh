#!/bin/sh
# Runs the unit-test program named like the .t file (tests/unit-core.t -> tests/unit-core).
exec "$top_builddir/tests/$(basename "$1" .t)"
