exports.run = function run() {};
