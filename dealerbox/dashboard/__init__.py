"""The floor dashboard: a web application for the floor supervisor (``dealerbox dashboard``). Optional: install
with ``pip install 'dealerbox[floor]'``; the terminal (``dealerbox run``) never imports this package."""
