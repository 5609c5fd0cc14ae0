# Makes `tests` a package of this project: django-sekizai installs a top-level package named
# `tests` into site-packages, which would otherwise shadow this directory.
