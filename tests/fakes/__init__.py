"""Small fake chat-platform servers on 127.0.0.1 that the real client libraries talk to."""
