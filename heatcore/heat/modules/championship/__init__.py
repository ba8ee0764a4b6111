"""The Championship module: seasons of races with event cards, Sponsorship cards, press
corners, points and standings (``spec/modules/championship.json``)."""
