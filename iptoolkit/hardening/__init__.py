"""What the toolkit's HTTP servers share against connections that hold a server hostage.

A flood of connections that never finish their headers once took the reference server down
(issue 14), then `iptoolkit mcp --http` (issue 44). The remedies do not depend on what is
served: a deadline on the request line and headers, a cap on open connections that sheds
the oldest stalled one, the cap fitted to the process's open-file limit, and failed accepts
survived and logged once a minute. So they live here, for every server of ours.

* `h11_protocol`: uvicorn's h11 protocol with those limits, for the reference server
  (`server/`) and `iptoolkit mcp --http` (`mcp/http.py`);
* `open_files`: the cap and accept batch that fit the open-file limit;
* `flood_log`: a line a minute with a count, never one per connection.
"""
