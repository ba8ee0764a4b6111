"""The Garage module: upgrade cards as data (``data``), the symbol vocabulary every card
composes (``symbols``), the steps of a turn that upgrades change (``turn``), and the draft
and the quick start that deal them (``draft``)."""
