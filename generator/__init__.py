"""nomic-archive: publish and verify the archives of Nomic games."""

__version__ = "0.1.0"
