"""Tests of bot.sessions modules."""
