"""What the views show, computed without a widget: the Explorer's selection, facets and
table pages, an item's details as HTML, and the interactive topology's view data, its
fitting to a canvas, its levels, drill-down, paths, findings and a diff's marks. The Explorer
(`widgets/`), the app's first view (`app/`), the offline HTML file (`offline/`) and the
docs site (`docsite/`) all read it; it imports no widget library."""
