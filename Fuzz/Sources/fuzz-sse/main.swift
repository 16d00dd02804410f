import FuzzSupport

runFuzzer(fuzzSSE)
