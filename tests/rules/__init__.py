"""The pure rules tests (see conftest.py): what mutation testing runs."""
