"""The estate: what a loaded snapshot is, indexed once for every view to read.

Above `models` and `support`, below everything else: nothing here imports a view, even
lazily, but for the `Estate` methods that offer one (`subset`, `to_frame`).
"""
