# placeholder: the TAP driver runs tests/unit-zzt through tests/run-unit.sh
