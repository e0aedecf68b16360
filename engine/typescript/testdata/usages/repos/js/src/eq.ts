import fl = require('fakelib');

fl.createClient();
