"""The app's tabs, one folder each with the same roles: tab (the Gradio components), handlers (the
events) and logic (what the tab does, without Gradio)."""
