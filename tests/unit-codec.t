# placeholder: the TAP driver runs tests/unit-codec through tests/run-unit.sh
