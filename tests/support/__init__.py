"""What several test folders share: the fake model server, plain helpers, the memory
stores and the PostgreSQL and Redis servers the suite starts on loopback."""
