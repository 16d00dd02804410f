import FuzzSupport

runFuzzer(fuzzReplyDecoders)
