import FuzzSupport

runFuzzer(fuzzNDJSON)
