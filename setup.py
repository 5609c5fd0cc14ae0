"""
The package's layout for setuptools (the metadata is in pyproject.toml).

The repository keeps its folders at the top (`rules/`, `commands/`, `typeclasses/`,
`rolllog/`); installed, they are `storyteller_dice.rules`, `storyteller_dice.commands`, ...
Their subpackages (each system's wing under commands/, rolllog's migrations) are found here
rather than listed, so a new wing is packaged without anyone remembering to add it.
"""

from setuptools import find_packages, setup

PACKAGE = "storyteller_dice"
FOLDERS = ("rules", "commands", "typeclasses", "rolllog")

found = find_packages(include=[pattern for name in FOLDERS for pattern in (name, f"{name}.*")])
packages = [PACKAGE] + [f"{PACKAGE}.{name}" for name in found]
package_dir = {PACKAGE: PACKAGE, **{f"{PACKAGE}.{name}": name for name in FOLDERS}}

setup(
    packages=packages,
    package_dir=package_dir,
    package_data={f"{PACKAGE}.rolllog": ["templates/rolllog/*.html", "static/rolllog/*",
                                        "panel_templates/webclient/*.html", "panel_templates/website/*.html",
                                        "static/storyteller_dice/*"]},
)
