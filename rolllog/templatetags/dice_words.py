"""
Template tags for the configured dice system's words and looks (`{% load dice_words %}`), so a
page names no system itself: `{% dice_name %}`, `{% dice_title %}`, `{% dice_blurb %}`,
`{% dice_slogan %}`, `{% account_name_rule %}`, `{% dice_command "+roll" %}` (plain text, escaped by
Django) and `{% dice_mark_styles %}` (a style block
with the looks of every installed system's own die marks, `rules.display.mark_css`, for the
pages that show dice).
"""

from django import template
from django.utils.html import format_html

from storyteller_dice.rules.display import mark_css
from storyteller_dice.typeclasses import welcome
from storyteller_dice.typeclasses.system import dice_system

register = template.Library()


@register.simple_tag
def dice_name():
    return dice_system().name


@register.simple_tag
def dice_title():
    return dice_system().title


@register.simple_tag
def dice_blurb():
    return welcome.blurb()


@register.simple_tag
def dice_slogan():
    return welcome.slogan()


@register.simple_tag
def dice_mark_styles():
    # The CSS is the systems' own declarations (code, not anyone's input); `mark_css` leaves
    # no `<` in it, so it cannot close the style block.
    css = mark_css()
    return format_html('<style id="dice-mark-styles">{}</style>', css) if css else ""


@register.simple_tag
def account_name_rule():
    """The one sentence on what an account name may be (typeclasses/names.py ACCOUNT_RULE)."""
    from storyteller_dice.typeclasses.names import ACCOUNT_RULE

    return ACCOUNT_RULE


@register.simple_tag
def dice_command(key):
    """The key our command `key` ("+roll") answers to in this game (`DICE_COMMAND_KEYS`),
    for a page that tells players what to type; "" where the game leaves it out."""
    return welcome.command_key(key) or ""


@register.simple_tag
def fairness_summary(test):
    """A fairness test's figures in words ("chi-square 7.30, 9 degrees of freedom: ..."), the
    line its chart draws, for a screen too narrow for the chart to hold it."""
    from storyteller_dice.rules.fairness import summary_line

    return summary_line(test)
