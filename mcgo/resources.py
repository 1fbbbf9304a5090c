"""The files mcgo ships inside its package (the default case base, the learned models), found
with :mod:`importlib.resources` so that a wheel's install finds them as a checkout does.

>>> package_file("mcgo.models", "weights", "moves.npz").is_file()
True
"""

import importlib.resources
import pathlib


def package_file(package, *parts):
    """The path of a data file of ``package`` (``parts`` below the package's folder).

    The case base is memory-mapped and the models are read with NumPy, so the file must be a
    real file on disk: that is how pip installs a wheel. An install that keeps packages in a
    zip archive gets a RuntimeError that says so."""
    resource = importlib.resources.files(package).joinpath(*parts)
    if not isinstance(resource, pathlib.Path):
        raise RuntimeError(f"{package} is not installed as files on disk ({resource}); "
                           f"install mcgo with pip so that its data files can be read")
    return resource
