"""The roll log's web page: /rolls/ (included from game/web/urls.py)."""

from django.urls import path

from . import views

app_name = "rolllog"

urlpatterns = [
    path("", views.roll_list, name="index"),
    path("fairness/", views.fairness, name="fairness"),
    path("odds/", views.odds, name="odds"),
]
