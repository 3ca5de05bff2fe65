"""Start the RadScope app from a checkout or a Hugging Face Space: ``python app.py [--host HOST]
[--port PORT] [--config FILE] [--public]``.

The app's start-up lives in the package (``radscope/launch.py``, also ``radscope app`` once
installed); this file is the entry a Space runs. See that module for the options.
"""
import sys

from radscope.launch import main

if __name__ == "__main__":
    sys.exit(main())
