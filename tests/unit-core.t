# placeholder: the TAP driver runs tests/unit-core through tests/run-unit.sh
