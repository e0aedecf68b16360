exports.el = function el() {};
