"""Chat adapters: each turns a platform's messages into session-manager calls and the manager's
replies into that platform's messages.  Only modules here may import a chat library."""
