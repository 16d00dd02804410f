import FuzzSupport

runFuzzer(fuzzMarkdown)
