"""The Hexhall bot: session manager, store, chat adapters and the ``hexhall`` command."""
