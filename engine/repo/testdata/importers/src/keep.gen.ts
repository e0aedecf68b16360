import 'stripe'
