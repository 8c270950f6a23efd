"""Package discovery (the rest of the metadata is in pyproject.toml): every package under
``mlopt/``, and the formulations folder ``models/`` installed as ``mlopt.models``."""
from setuptools import find_packages, setup

MODELS = ["mlopt.models"] + [f"mlopt.models.{p}" for p in find_packages("models")]

setup(packages=find_packages(include=["mlopt", "mlopt.*"]) + MODELS,
      package_dir={"mlopt.models": "models"})
