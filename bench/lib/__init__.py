"""Code the benchmark scripts share (imported as ``bench.lib``, with the repository root on ``sys.path``)."""
