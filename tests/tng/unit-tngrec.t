# placeholder: the TAP driver runs tests/unit-tngrec through tests/run-unit.sh
