"""contrib/'s distributions inside real agent runs."""
