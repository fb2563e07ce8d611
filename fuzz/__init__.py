"""zperf's fuzzing harness: damaged copies of every reader's fixtures (see README.md)."""
