"""
Object

The Object is the class for general items in the game world.

Use the ObjectParent class to implement common features for *all* entities
with a location in the game world (like Characters, Rooms, Exits).

"""

from evennia.objects.objects import DefaultObject


class ObjectParent:
    """
    This is a mixin that can be used to override *all* entities inheriting at
    some distance from DefaultObject (Objects, Exits, Characters and Rooms).

    Just add any method that exists on `DefaultObject` to this class. If one
    of the derived classes has itself defined that same hook already, that will
    take precedence.

    """

    def get_display_name(self, looker=None, **kwargs):
        # The host's own name display: the key as it is, without calling super().
        return self.key


class Object(ObjectParent, DefaultObject):
    """The root Object typeclass (Evennia's template, its long docstring left out)."""

    pass
