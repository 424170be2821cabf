"""Step through a cell: the cell diagram and the equations with numbers substituted."""
