----- Recipe via Meal-Master (tm) v8.02
 
      Title: Crème Brûlée
 Categories: Desserts, French
   Servings:  4
 
      2 c  Heavy cream
      5    Egg yolks
    1/3 c  Sugar
      1 ts Vanilla extract
----------------------------FOR THE TOPPING-----------------------------
      4 tb Demerara sugar
 
  Heat the cream until it steams. Whisk the yolks with the sugar, pour in
  the cream slowly, add the vanilla.
 
  Pour into four ramekins and bake in a water bath at 150 °C for 40
  minutes. Chill overnight.
 
  Sprinkle with the demerara and caramelise under a hot grill.
 
-----

----- Recipe via Meal-Master (tm) v8.02
 
      Title: Café Glacé
 Categories: Beverages
   Servings:  2
 
      2 c  Strong coffee, cold
      2    Scoops vanilla ice cream
           Whipped cream
 
  Pour the coffee over the ice cream in tall glasses and top with cream.
 
-----
