"""tripwire's built-in processors, one module per processor id."""
