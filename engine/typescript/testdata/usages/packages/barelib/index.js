'use strict';
exports.name = { first: function first() { return 'Ada'; } };
exports.email = function email() { return 'ada@example.com'; };
