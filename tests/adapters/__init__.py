"""Tests of the chat adapters against fake platform servers on 127.0.0.1."""
