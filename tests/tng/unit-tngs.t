# placeholder: the TAP driver runs tests/unit-tngs through tests/run-unit.sh
