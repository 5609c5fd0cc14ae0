"""
Template tags for the configured dice system's words and looks (`{% load dice_words %}`), so a
page names no system itself: `{% dice_name %}`, `{% dice_title %}`, `{% dice_blurb %}`,
`{% dice_slogan %}` (plain text, escaped by Django) and `{% dice_mark_styles %}` (a style block
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
