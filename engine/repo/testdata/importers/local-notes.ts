import 'info-exclude'
