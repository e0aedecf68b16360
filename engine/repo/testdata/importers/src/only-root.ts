import 'left-pad'
