"""What the toolkit's HTTP servers share against connections that hold a server hostage.

A flood of connections that never finish their headers once took down or wedged each
server in turn (issues 14 and 44). The remedies are the same wherever the stack is:
a deadline on the request line and headers, a cap on open connections that sheds the
oldest stalled one, the cap fitted to the process's open-file limit, and an accept loop
that, out of descriptors, waits a moment instead of failing, logged once a minute.

* `h11_protocol`: uvicorn's h11 protocol with those limits, for the reference server
  (`server/`) and `iptoolkit mcp --http` (`mcp/http.py`);
* `open_files`: the cap and accept batch that fit the open-file limit (the app's tornado
  server, `app/connections.py`, uses it too);
* `flood_log`: a line a minute with a count, never one per connection.
"""
