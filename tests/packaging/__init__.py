"""The package as installed: wheels, discovery through metadata, types, moved paths."""
