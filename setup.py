"""Package discovery (the rest of the metadata is in pyproject.toml): every package under
``mlopt/`` (data-only folders such as Harmony's ``checkpoints/`` included: namespace discovery,
so setuptools does not warn that a folder it ships files from is not a package), and the
formulations folder ``models/`` installed as ``mlopt.models``."""
from setuptools import find_namespace_packages, find_packages, setup

MODELS = ["mlopt.models"] + [f"mlopt.models.{p}" for p in find_packages("models")]

setup(packages=find_namespace_packages(include=["mlopt", "mlopt.*"], exclude=["*__pycache__*"])
      + MODELS,
      package_dir={"mlopt.models": "models"})
