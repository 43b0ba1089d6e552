char c = '\
