describeIt('x', () => {});
globlib.go();
